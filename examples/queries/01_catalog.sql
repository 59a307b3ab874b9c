-- What is in the file: every dataset with its type, shape, chunking and dims.
SELECT name, dtype, shape, chunk_shape, dim_names, element_count, chunk_count
  FROM tet_datasets
 ORDER BY name;
