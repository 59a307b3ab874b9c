-- files: testdata/era5_monthly/**/*.tet
-- Days across the end of January, from two files: each keeps its own time
-- index and dates. The term on month keeps the other ten files unopened.
SELECT month, time, time_label, value
  FROM t2m
 WHERE month IN ('01', '02')
   AND time_label BETWEEN '2024-01-30' AND '2024-02-02'
   AND lat_label = 45 AND lon_label = 5
 ORDER BY time_label;
