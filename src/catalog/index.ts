// The Iceberg REST catalog half of the connection test.
export { CATALOG_STEPS, type CatalogChainOptions, catalogChain, createCatalogChain } from './chain.js';
export { CATALOG_DIAGNOSES, type CatalogDiagnosisCode } from './diagnoses.js';
