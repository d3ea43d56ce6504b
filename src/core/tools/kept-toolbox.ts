// Reusing and keeping a file's indexes (issue 26, made safe by issue 35): the engine finds a
// candidate snapshot by the file's cheap identity (toolboxKey), checks what the store gave back
// (snapshot-shape.ts), and uses it only when the whole file's checksum is the one kept with it;
// after a build, it takes the checksum and writes the snapshot, and anyone may wait for that
// (KeepTracker: a one-shot CLI run waits before it exits). Pure: the store, the hash and the
// file's bytes are ports the host gives. A server database (issue 36) is kept the same way: its
// "bytes" are its change state written out (adapters/postgres/change-state.ts), read again before
// a snapshot is written and before one is reused.

import type { KeepProgress, KeptState } from '../engine';
import type { SqlExecutor } from '../executor';
import type { Schema } from '../types';
import {
  digestContent,
  sameContent,
  type ContentDigest,
  type ContentHasher,
  type ContentSource,
} from './content-digest';
import { checkedSnapshot } from './snapshot-shape';
import { toolboxFromSnapshot, type BuildToolboxOptions, type Toolbox, type ToolboxProgress } from './toolbox';
import { cellsRead, type ToolboxSnapshot, type ToolboxStore } from './toolbox-snapshot';

/** A file whose indexes may be kept: its key, its bytes, and whether it is still what was read. */
export interface KeptFile {
  key: string;
  content: ContentSource;
  /**
   * False once the file changed after it was opened (a file read in place whose modification time
   * moved; a server table written while it was read): its index and a checksum taken now would
   * describe two different files.
   */
  unchanged(): boolean | Promise<boolean>;
}

export interface KeptToolboxesOptions {
  store: ToolboxStore;
  hasher: ContentHasher;
  /** Databases with fewer text cells read are not kept (KEEP_INDEXES_FROM_CELLS). */
  keepFromCells: number;
}

export class KeptToolboxes {
  /** One checksum per opened file, shared by the reuse check and the keep after a rebuild. */
  private readonly digests = new WeakMap<ContentSource, Promise<ContentDigest>>();

  constructor(private readonly o: KeptToolboxesOptions) {}

  /** The file's checksum, taken once; `onProgress` hears the bytes read. */
  digestOf(file: KeptFile, onProgress?: (done: number, total: number) => void): Promise<ContentDigest> {
    let digest = this.digests.get(file.content);
    if (!digest) {
      digest = digestContent(file.content, this.o.hasher, onProgress);
      this.digests.set(file.content, digest);
    }
    return digest;
  }

  /**
   * The toolbox made from the snapshot kept for this file; null when there is none, it is
   * damaged (then it is removed), or it was made from another file (a different checksum: it
   * stays until the build that follows replaces it under the same key).
   */
  async reuse(
    file: KeptFile,
    exec: SqlExecutor,
    schema: Schema,
    options: Pick<BuildToolboxOptions, 'descriptions' | 'embedder'>,
    onProgress?: (p: ToolboxProgress) => void,
  ): Promise<Toolbox | null> {
    const found = await this.o.store.get(file.key).catch(() => null);
    if (!found) return null;
    const damaged = async () => {
      // Removed, so the next opening does not read it again.
      await this.o.store.remove(file.key).catch(() => undefined);
      return null;
    };
    let snapshot: ToolboxSnapshot;
    try {
      snapshot = checkedSnapshot(found, file.key);
    } catch {
      return damaged();
    }
    let content: ContentDigest;
    try {
      content = await this.digestOf(file, (done, total) => onProgress?.({ stage: 'checking', done, total }));
    } catch {
      return null; // the file could not be read through: not the snapshot's fault
    }
    if (!sameContent(snapshot.content, content)) return null;
    try {
      return await toolboxFromSnapshot(exec, schema, snapshot, options);
    } catch {
      return damaged(); // its value index failed its checksum or structure
    }
  }

  /** Keeps a built toolbox for the next opening of the file, if it is large enough to be worth it. */
  async keep(file: KeptFile, toolbox: Toolbox, onProgress?: (p: KeepProgress) => void): Promise<KeptState> {
    if (cellsRead(toolbox.values) < this.o.keepFromCells) return 'not-kept';
    try {
      const content = await this.digestOf(file, (done, total) =>
        onProgress?.({ phase: 'checksum', fraction: total ? done / total : 1 }),
      );
      if (!(await file.unchanged())) return 'not-kept';
      const written = await this.o.store.put({ ...toolbox.snapshot(), key: file.key, content }, (fraction) =>
        onProgress?.({ phase: 'writing', fraction }),
      );
      return written ? 'kept' : 'failed';
    } catch {
      return 'failed';
    }
  }
}

/**
 * What a database's indexes are becoming for the next opening, for whoever waits on it
 * (DbEngine.finishKeeping), with the progress of the build and the write as they come.
 */
export class KeepTracker {
  private readonly listeners = new Set<(p: KeepProgress) => void>();
  private current: Promise<KeptState> | null = null;

  /** Follows a new build and keep (the last one is what is waited for). */
  track(state: Promise<KeptState>): void {
    this.current = state;
  }

  tell(p: KeepProgress): void {
    for (const l of this.listeners) l(p);
  }

  async finish(onProgress?: (p: KeepProgress) => void): Promise<KeptState> {
    const state = this.current;
    if (!state) return 'none';
    if (onProgress) this.listeners.add(onProgress);
    try {
      return await state;
    } finally {
      if (onProgress) this.listeners.delete(onProgress);
    }
  }
}
