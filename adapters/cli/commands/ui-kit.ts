import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CliCommand, CommandIO } from '../command.js';
import { writeNewFiles } from '../generators/generated-files.js';
import { COMPONENTS_FOLDER, KIT_AREAS, componentNames, componentSource, publishedKit } from '../generators/ui-kit-sources.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface UiKitDeps {
  /** The app's folder. */
  root(): string;
  /** The framework's `templates/fw/ui/` folder, holding one file per area of the kit. */
  kitFolder(): string;
  /** The framework's version, written into the published kit's header. */
  version(): string;
}

const KIT_PATH = `${COMPONENTS_FOLDER}/ui.html`;

async function publish(deps: UiKitDeps, io: CommandIO, force: boolean): Promise<void> {
  const target = join(deps.root(), KIT_PATH);
  if (existsSync(target) && !force) {
    throw new FrameworkError('cli.file-exists', `${KIT_PATH} exists already (your copy of the kit, perhaps changed); run ui:publish --force to replace it with the framework's kit. Nothing was written`);
  }
  const areas = [];
  for (const area of KIT_AREAS) {
    const file = join(deps.kitFolder(), `${area}.html`);
    if (existsSync(file)) areas.push({ area, source: await readFile(file, 'utf8') });
  }
  const text = publishedKit(areas, deps.version());
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, text);
  io.out(`${force ? 'Replaced' : 'Created'} ${KIT_PATH}: import from "components/ui.html"`);
}

/** `ui:publish` and `make:component`: the kit and components an app owns and edits. */
export function uiKitCommands(deps: UiKitDeps): CliCommand[] {
  return [
    {
      name: 'ui:publish',
      description: `Copy the UI kit into ${KIT_PATH} as one file, to change it (--force replaces an earlier copy)`,
      options: [{ flags: '--force', description: `Replace ${KIT_PATH} if it exists`, type: 'boolean' }],
      async run({ options }, io) {
        await publish(deps, io, options['force'] === true);
      },
    },
    {
      name: 'make:component',
      args: '<name>',
      description: `Create ${COMPONENTS_FOLDER}/<name>.html, a macro that uses old(), error(), t(), can(), auth and csrf_field() (--ui also publishes the kit)`,
      options: [{ flags: '--ui', description: `Also publish the kit to ${KIT_PATH} (unless it is there)`, type: 'boolean' }],
      async run({ args, options }, io) {
        const name = args[0] ?? '';
        const path = `${COMPONENTS_FOLDER}/${componentNames(name).file}`;
        for (const written of await writeNewFiles(deps.root(), [{ path, text: componentSource(name) }])) io.out(`Created ${written}`);
        if (options['ui'] === true) {
          if (existsSync(join(deps.root(), KIT_PATH))) io.out(`${KIT_PATH} exists already; left as it is`);
          else await publish(deps, io, false);
        }
      },
    },
  ];
}
