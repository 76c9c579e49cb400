// NestJS 10's packages, as this folder's own node_modules holds them.
module.exports = {
  common: require('@nestjs/common'),
  core: require('@nestjs/core'),
  platformExpress: require('@nestjs/platform-express'),
  swagger: require('@nestjs/swagger'),
};
