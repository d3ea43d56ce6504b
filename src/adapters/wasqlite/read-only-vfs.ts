// A SQLite VFS that reads registered files where they lie and writes nothing (issue 26). Only
// a main database registered by the engine opens; journals, WAL and temporary files are
// refused (the connection keeps temporary data in memory), every write is SQLITE_READONLY, and
// the files are declared immutable so SQLite takes no locks and looks for no journal.

import type { RandomAccessFile } from '../../core/db/random-access';
import type { WaSqliteModule } from './module';

const OK = 0;
const IOERR = 10;
const READONLY = 8;
const CANTOPEN = 14;
const NOTFOUND = 12;
const IOERR_SHORT_READ = 522;
const IOERR_DELETE = 2570;
const OPEN_READONLY = 0x1;
const OPEN_MAIN_DB = 0x100;
const IOCAP_IMMUTABLE = 0x2000;

export const READ_ONLY_VFS = 'dowser-read-only';

interface Registered {
  file: RandomAccessFile;
  /** Header bytes 18–19 say WAL: read as rollback mode (the -wal file is not read), like the in-memory path. */
  walAsRollback: boolean;
}

export class ReadOnlyVfs {
  readonly name = READ_ONLY_VFS;
  readonly mxPathname = 256;
  private readonly files = new Map<string, Registered>();
  private readonly open = new Map<number, Registered>();

  constructor(private readonly m: WaSqliteModule) {}

  hasAsyncMethod(): boolean {
    return false;
  }

  /** Makes `file` openable under `name` (until `forget`). */
  register(name: string, file: RandomAccessFile, walAsRollback: boolean): void {
    this.files.set(name, { file, walAsRollback });
  }

  forget(name: string): void {
    this.files.delete(name);
  }

  xOpen(_vfs: number, zName: number, pFile: number, flags: number, pOutFlags: number): number {
    const entry = zName ? this.files.get(this.m.UTF8ToString(zName)) : undefined;
    if (!entry || !(flags & OPEN_MAIN_DB)) return CANTOPEN;
    this.open.set(pFile, entry);
    this.setI32(pOutFlags, OPEN_READONLY | OPEN_MAIN_DB);
    return OK;
  }

  xDelete(): number {
    return IOERR_DELETE;
  }

  /** No journal, WAL or other file exists beside a registered database. */
  xAccess(_vfs: number, _zName: number, _flags: number, pResOut: number): number {
    this.setI32(pResOut, 0);
    return OK;
  }

  xFullPathname(_vfs: number, zName: number, nOut: number, zOut: number): number {
    this.m.stringToUTF8(this.m.UTF8ToString(zName), zOut, nOut);
    return OK;
  }

  xRandomness(_vfs: number, nByte: number, pOut: number): number {
    crypto.getRandomValues(this.m.HEAPU8.subarray(pOut, pOut + nByte));
    return nByte;
  }

  xGetLastError(): number {
    return OK;
  }

  xClose(pFile: number): number {
    this.open.delete(pFile);
    return OK;
  }

  xRead(pFile: number, pData: number, iAmt: number, iOffsetLo: number, iOffsetHi: number): number {
    const entry = this.open.get(pFile);
    if (!entry) return IOERR;
    const offset = iOffsetHi * 0x100000000 + (iOffsetLo >>> 0);
    const into = this.m.HEAPU8.subarray(pData, pData + iAmt);
    let n: number;
    try {
      n = entry.file.read(offset, into);
    } catch {
      return IOERR;
    }
    if (entry.walAsRollback && offset <= 19 && offset + n > 18) {
      if (offset <= 18) into[18 - offset] = 1;
      if (offset + n > 19) into[19 - offset] = 1;
    }
    if (n < iAmt) {
      into.fill(0, n);
      return IOERR_SHORT_READ;
    }
    return OK;
  }

  xWrite(): number {
    return READONLY;
  }

  xTruncate(): number {
    return READONLY;
  }

  xSync(): number {
    return OK;
  }

  xFileSize(pFile: number, pSize: number): number {
    const entry = this.open.get(pFile);
    if (!entry) return IOERR;
    const view = new DataView(this.m.HEAPU8.buffer, pSize, 8);
    view.setBigInt64(0, BigInt(entry.file.size), true);
    return OK;
  }

  xLock(): number {
    return OK;
  }

  xUnlock(): number {
    return OK;
  }

  xCheckReservedLock(_pFile: number, pResOut: number): number {
    this.setI32(pResOut, 0);
    return OK;
  }

  xFileControl(): number {
    return NOTFOUND;
  }

  xSectorSize(): number {
    return 4096;
  }

  xDeviceCharacteristics(): number {
    return IOCAP_IMMUTABLE;
  }

  private setI32(p: number, v: number): void {
    new DataView(this.m.HEAPU8.buffer, p, 4).setInt32(0, v, true);
  }
}
