-- Metadata tables: attributes and the labelled axes of every dataset.
SELECT d.dataset, d.name AS dim, d.size, d.labeled,
       (SELECT value FROM tet_attrs a WHERE a.dataset = d.dataset AND a.key = 'units') AS units
  FROM tet_dims d
 ORDER BY d.dataset, d.axis;
