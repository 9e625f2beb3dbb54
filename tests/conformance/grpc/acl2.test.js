'use strict';
// The 5.x endpoint under ACL 2.0, users and policies migrated from the plain ACL's file:
// acl_scenario.js.
require('./acl_scenario').runAclScenario('acl2', { acl2: true });
