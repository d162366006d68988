import { describeFuzz } from '../helpers/fuzz-suite.ts';

// The OpenAPI fuzz, operations 1, 3, 5, … of the document (helpers/fuzz-suite.ts).
await describeFuzz(1, 2);
