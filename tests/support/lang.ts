import { join } from 'node:path';
import { JsonTranslator } from '../../adapters/lang/json-translator.js';
import { FRAMEWORK_TEMPLATES } from '../../adapters/views/framework-templates.js';
import type { Lang } from '../../domain/lang/lang.js';

/** The framework's own translations (templates/lang), English as the fallback. */
export const frameworkTranslator = new JsonTranslator([join(FRAMEWORK_TEMPLATES, 'lang')], 'en');

export const english: Lang = frameworkTranslator.lang('en');
export const german: Lang = frameworkTranslator.lang('de');
