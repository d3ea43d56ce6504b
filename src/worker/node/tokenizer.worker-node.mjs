// Plain-JS bootstrap: worker threads cannot load TypeScript themselves, so register tsx first.
import { register } from 'tsx/esm/api';

register();
await import('./tokenizer.worker-node.ts');
