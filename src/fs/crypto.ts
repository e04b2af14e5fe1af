// node:crypto, loaded on first use. Importing it loads ~16 of Node's internal modules (keys, ciphers,
// X.509, …), which the bin compiles from source at every start (its V8 flags turn Node's own code
// cache away): a command pays for them when it first hashes or draws a random name, not because it
// loaded a module that might. The modules below the CLI that need a hash or random bytes take them
// from here.
import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');

let loaded: Crypto | undefined;

/** The node:crypto module (required the first time it is asked for). */
export function nodeCrypto(): Crypto {
  loaded ??= createRequire(import.meta.url)('node:crypto') as Crypto;
  return loaded;
}
