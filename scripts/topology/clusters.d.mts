/** Types of clusters.mjs (a plain script so `npm run topology` runs it without a build). */
export interface Cluster {
  readonly name: string;
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly data: string;
  stop(): void;
}
export type Query = (sql: string) => Promise<{ rows: any[] }>;
export interface PrimaryWithStandby {
  readonly primary: Cluster;
  readonly standby: Cluster;
  caughtUp(primary: Query, standby: Query): Promise<void>;
  stop(): void;
}
export interface Pgbouncer {
  readonly port: number;
  url(database: string): string;
  stop(): void;
}
export function postgresBin(): string | undefined;
export function pgbouncerBin(): string | undefined;
export function hasPostgresFdw(): boolean;
export function topologyUnavailable(name: 'pgbouncer' | 'replica' | 'shards'): string | undefined;
export function freePort(): Promise<number>;
export function initDataDirectory(bin: string, data: string): void;
export function startCluster(name: string): Promise<Cluster>;
export function waitForReplay(primary: Query, standby: Query): Promise<void>;
export function startPrimaryWithStandby(): Promise<PrimaryWithStandby>;
export function startPgbouncer(upstream: Cluster, options?: { poolSize?: number }): Promise<Pgbouncer>;
