import { describeRoleTour } from './helpers/role-suite.ts';

describeRoleTour('developer');
