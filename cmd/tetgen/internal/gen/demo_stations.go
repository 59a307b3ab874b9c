package gen

// station is one city of the demo file. mean and amp are rough climate
// normals in °C: the annual mean, and half the difference between the
// warmest and the coldest month (negative south of the equator, where
// July is winter). Coordinates and elevations are approximate.
type station struct {
	name      string
	lat, lon  float64
	elevation int32 // metres above sea level
	mean, amp float64
}

// demoStations are the 50 stations of the demo, north to south.
var demoStations = []station{
	{"Longyearbyen", 78.22, 15.65, 28, -4.0, 10.0},
	{"Nuuk", 64.18, -51.72, 54, -1.4, 7.0},
	{"Reykjavik", 64.13, -21.90, 52, 5.0, 5.7},
	{"Yakutsk", 62.03, 129.73, 98, -8.8, 29.0},
	{"Anchorage", 61.22, -149.90, 40, 3.0, 11.5},
	{"Helsinki", 60.17, 24.94, 51, 6.1, 11.0},
	{"Oslo", 59.91, 10.75, 94, 6.3, 10.2},
	{"Stockholm", 59.33, 18.07, 44, 7.5, 9.8},
	{"Moscow", 55.76, 37.62, 156, 5.8, 12.9},
	{"Copenhagen", 55.68, 12.57, 14, 9.1, 8.1},
	{"Dublin", 53.35, -6.26, 68, 9.8, 5.2},
	{"Berlin", 52.52, 13.40, 34, 10.0, 9.4},
	{"Amsterdam", 52.37, 4.90, -2, 10.5, 7.1},
	{"Warsaw", 52.23, 21.01, 100, 8.6, 10.5},
	{"London", 51.51, -0.13, 35, 11.3, 6.8},
	{"Vancouver", 49.28, -123.12, 70, 10.4, 7.0},
	{"Paris", 48.86, 2.35, 35, 12.3, 7.8},
	{"Vienna", 48.21, 16.37, 190, 11.4, 10.3},
	{"Munich", 48.14, 11.58, 519, 9.1, 9.8},
	{"Ulaanbaatar", 47.89, 106.91, 1350, -0.4, 20.0},
	{"Zurich", 47.38, 8.54, 408, 9.3, 9.3},
	{"Montreal", 45.50, -73.57, 36, 6.8, 15.5},
	{"Toronto", 43.65, -79.38, 76, 9.4, 13.9},
	{"Rome", 41.90, 12.50, 21, 15.7, 8.7},
	{"Chicago", 41.88, -87.63, 181, 10.3, 14.0},
	{"Istanbul", 41.01, 28.98, 39, 15.2, 9.2},
	{"New York", 40.71, -74.01, 10, 13.2, 12.2},
	{"Madrid", 40.42, -3.70, 667, 15.0, 9.7},
	{"Beijing", 39.90, 116.41, 44, 12.9, 15.1},
	{"Denver", 39.74, -104.99, 1609, 10.4, 12.2},
	{"Lisbon", 38.72, -9.14, 77, 17.4, 6.0},
	{"Athens", 37.98, 23.73, 70, 18.5, 9.1},
	{"San Francisco", 37.77, -122.42, 16, 14.6, 3.6},
	{"Seoul", 37.57, 126.98, 86, 12.5, 14.0},
	{"Tokyo", 35.68, 139.69, 40, 15.8, 10.8},
	{"Los Angeles", 34.05, -118.24, 89, 18.6, 5.0},
	{"Phoenix", 33.45, -112.07, 331, 24.0, 10.8},
	{"Cairo", 30.04, 31.24, 23, 22.3, 7.2},
	{"Delhi", 28.61, 77.21, 216, 25.0, 9.8},
	{"Miami", 25.76, -80.19, 2, 25.2, 4.5},
	{"Dubai", 25.20, 55.27, 5, 28.2, 8.2},
	{"Hong Kong", 22.32, 114.17, 32, 23.3, 6.3},
	{"Mexico City", 19.43, -99.13, 2240, 16.6, 2.5},
	{"Lagos", 6.52, 3.38, 41, 27.0, 1.5},
	{"Singapore", 1.35, 103.82, 15, 27.5, 0.6},
	{"Nairobi", -1.29, 36.82, 1795, 18.0, -1.2},
	{"Sao Paulo", -23.55, -46.63, 760, 19.6, -3.6},
	{"Sydney", -33.87, 151.21, 39, 18.4, -5.2},
	{"Cape Town", -33.92, 18.42, 42, 16.9, -4.3},
	{"Buenos Aires", -34.60, -58.38, 25, 18.0, -6.9},
}

// demoGaps are the missing temperature readings (stored as NaN): station,
// first day (0 = 2024-01-01) and number of days.
var demoGaps = []struct {
	station    string
	day, count int
}{
	{"Moscow", 40, 5}, // 2024-02-10 … 2024-02-14
	{"Lagos", 182, 3}, // 2024-07-01 … 2024-07-03
	{"Nuuk", 324, 1},  // 2024-11-20
}
