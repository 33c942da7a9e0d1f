/**
 * Whether the site is down for maintenance, seen the same by every process on the machine
 * (`fwx down` in a shell, the servers answering requests).
 */
export interface MaintenanceSwitch {
  /** The marker's text while down, null while up. Called on every request: it must be cheap. */
  read(): string | null;
  down(marker: string): Promise<void>;
  /** Brings the site up; false when it was not down. */
  up(): Promise<boolean>;
}
