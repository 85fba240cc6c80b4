/** A noise monitor's current system state (`data.monitorCurrent`, GET /data/monitor/current). */

export interface MonitorCurrent {
  /** The serial, or null when the service's answer names none (the documented sample does not). */
  instrument: string | null;
  /** % */
  cpu: number | null;
  /** Memory in use, % here (MB in the stats). */
  mem: number | null;
  /** °C, system-on-chip. */
  temp: number | null;
  /** V, supply. */
  voltage: number | null;
  /** Disk in use, % here (MB in the stats). */
  disk: number | null;
  /** kbit/s */
  network: number | null;
  /** MB */
  simQuota: number | null;
  /** MB */
  simUsage: number | null;
  /** s since the monitor started. */
  uptime: number | null;
}

/** The answer to `data.monitorCurrent`: the state (null when the service has none, e.g. offline) and when it was read. */
export interface MonitorCurrentResult {
  state: MonitorCurrent | null;
  fetchedAt: number;
}
