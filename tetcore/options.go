package tetcore

import "fmt"

// DefaultMaxChunkBytes is the default limit on one chunk's decoded size.
// A zstd chunk of a few KB can legitimately declare this much (runs of
// one byte compress to almost nothing), so it bounds what one small
// hostile file can make a query allocate; chunks of real arrays are
// rarely above tens of MiB, and larger ones need the option.
const DefaultMaxChunkBytes = 256 << 20

type options struct {
	maxChunkBytes int64
}

// Option configures Open and Parse.
type Option func(*options) error

// WithMaxChunkBytes limits the decoded size of any single chunk; reading a
// larger chunk fails with ErrTooLarge instead of allocating. Default 1 GiB.
func WithMaxChunkBytes(n int64) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("tetcore: WithMaxChunkBytes(%d): must be at least 1", n)
		}
		o.maxChunkBytes = n
		return nil
	}
}

func buildOptions(opts []Option) (options, error) {
	o := options{maxChunkBytes: DefaultMaxChunkBytes}
	for _, fn := range opts {
		if err := fn(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}
