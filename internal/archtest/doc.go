// Package archtest holds no code: its tests check the project's layout
// rules (who may import whom, file sizes, documented exports), described
// in docs/ARCHITECTURE.md.
package archtest
