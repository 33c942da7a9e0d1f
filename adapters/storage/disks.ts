import type { Storage, StorageDisk } from '../../ports/storage.js';
import { FrameworkError } from '../../domain/shared/errors.js';

/** The app's disks by name, with FILESYSTEM_DISK's as the default. */
export class Disks implements Storage {
  private readonly byName: ReadonlyMap<string, StorageDisk>;
  readonly default: StorageDisk;

  constructor(disks: readonly StorageDisk[], defaultName: string) {
    this.byName = new Map(disks.map((disk) => [disk.name, disk]));
    this.default = this.disk(defaultName);
  }

  get names(): readonly string[] {
    return [...this.byName.keys()];
  }

  disk(name?: string): StorageDisk {
    if (name === undefined) return this.default;
    const disk = this.byName.get(name);
    if (disk === undefined) throw new FrameworkError('storage.unknown-disk', `No storage disk named "${name}" (the disks are: ${this.names.join(', ')})`);
    return disk;
  }
}
