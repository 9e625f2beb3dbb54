'use strict';
// The 5.x endpoint under RocketMQ's plain ACL (aclEnable=true): acl_scenario.js.
require('./acl_scenario').runAclScenario('acl', { acl2: false });
