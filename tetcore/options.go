package tetcore

import "fmt"

// DefaultMaxChunkBytes is the default limit on one chunk's decoded size.
const DefaultMaxChunkBytes = 1 << 30

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
