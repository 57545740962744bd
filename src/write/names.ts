// Names the write check shares with the commands, without loading the check itself.

/** OLake's check namespace (datazip-inc/olake destination/iceberg/iceberg.go Check: "test_olake"). */
export const OLAKE_CHECK_NAMESPACE = 'test_olake';
