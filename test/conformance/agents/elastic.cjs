// Elastic's APM agent, started first as its docs ask, sending nothing.
'use strict';
require('elastic-apm-node').start({
  serviceName: 'agents',
  disableSend: true,
  centralConfig: false,
  cloudProvider: 'none',
  metricsInterval: '0s',
  logLevel: 'off',
});
