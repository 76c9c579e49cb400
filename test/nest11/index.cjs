// NestJS 11's packages, as this folder's own node_modules holds them.
module.exports = {
  common: require('@nestjs/common'),
  core: require('@nestjs/core'),
  platformExpress: require('@nestjs/platform-express'),
  platformFastify: require('@nestjs/platform-fastify'),
  swagger: require('@nestjs/swagger'),
};
