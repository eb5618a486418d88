/**
 * Relinting as the user types, without blocking the server: a change waits
 * for a pause (`debounceMs`), the lint runs in slices that yield to other
 * messages (hover, completion answer between slices), and a relint whose
 * document has a newer version by then is dropped, so only the version the
 * user stopped at is linted to the end and published.
 */

/**
 * How a relint reads and publishes a document.
 *
 * @example
 * const relinter = createRelinter({ current: (uri) => documents.get(uri), lint: (doc) => linter.units(doc), publish: send });
 */
export interface RelintHooks<D extends { readonly uri: string; readonly version: number }, R> {
  /** The document as the server holds it now (undefined once closed). */
  current(uri: string): D | undefined;
  /** The units of work of one relint (one per entry), each returning its findings. */
  lint(doc: D): readonly (() => readonly R[])[];
  /** Sends the findings of a relint that ran to the end on the current version. */
  publish(doc: D, findings: readonly R[]): void;
  /** Pause after the last change before relinting; default 150 ms. */
  readonly debounceMs?: number;
  /** Work per slice before yielding to other messages; default 8 ms. */
  readonly sliceMs?: number;
}

/**
 * Schedules relints of documents.
 *
 * @example
 * relinter.changed(doc); // relints after a pause, unless a newer version comes first
 */
export interface Relinter<D> {
  /** A document was opened or changed: lint it after a pause, replacing any relint pending or running. */
  changed(doc: D): void;
  /** A document was closed: forget its pending relint. */
  closed(uri: string): void;
}

/**
 * Creates the relint scheduler of a server.
 *
 * @example
 * const relinter = createRelinter({ current, lint, publish });
 * documents.onDidChangeContent((change) => relinter.changed(change.document));
 */
export function createRelinter<D extends { readonly uri: string; readonly version: number }, R>(hooks: RelintHooks<D, R>): Relinter<D> {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const debounceMs = hooks.debounceMs ?? 150;
  const sliceMs = hooks.sliceMs ?? 8;
  const stale = (doc: D): boolean => hooks.current(doc.uri)?.version !== doc.version;

  const run = async (doc: D): Promise<void> => {
    if (stale(doc)) return;
    const units = hooks.lint(doc);
    const findings: R[] = [];
    let sliceStart = performance.now();
    for (const unit of units) {
      if (performance.now() - sliceStart > sliceMs) {
        // Let waiting messages in (a hover, the next change), then go on only if this version is still current.
        await new Promise((resolve) => setImmediate(resolve));
        if (stale(doc)) return;
        sliceStart = performance.now();
      }
      findings.push(...unit());
    }
    if (!stale(doc)) hooks.publish(doc, findings);
  };
  const schedule = (doc: D, delay: number): void => {
    const pending = timers.get(doc.uri);
    if (pending !== undefined) clearTimeout(pending);
    timers.set(
      doc.uri,
      setTimeout(() => {
        timers.delete(doc.uri);
        void run(doc);
      }, delay),
    );
  };
  return {
    changed: (doc) => schedule(doc, debounceMs),
    closed(uri) {
      const pending = timers.get(uri);
      if (pending !== undefined) clearTimeout(pending);
      timers.delete(uri);
    },
  };
}
