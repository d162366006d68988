import { describeFuzz } from '../helpers/fuzz-suite.ts';

// The OpenAPI fuzz, operations 2, 4, 6, … of the document (helpers/fuzz-suite.ts).
await describeFuzz(2, 2);
