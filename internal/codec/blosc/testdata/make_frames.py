"""Writes the plain super-chunk frames (no metalayer) the frame tests read.

Run with python-blosc2 4.x: python3 make_frames.py. The data of each frame
is a formula the Go test recomputes (see framedecode_test.go), so no
expected bytes are stored.
"""
import blosc2
import numpy as np


def write(name, data, typesize, chunksize, codec, filters):
    cparams = {"typesize": typesize, "codec": codec, "clevel": 5, "filters": filters}
    s = blosc2.SChunk(chunksize=chunksize, data=data, cparams=cparams)
    with open(name, "wb") as f:
        f.write(s.to_cframe())


# 4000 bytes in chunks of 1024: the last chunk holds 928.
write("schunk_i32_tail.b2frame", np.arange(1000, dtype="<i4").tobytes(), 4, 1024,
      blosc2.Codec.ZSTD, [blosc2.Filter.SHUFFLE])
# 10000 bytes of typesize 1 in chunks of 4096 (the last 1808), lz4, no filter.
write("schunk_u8_lz4.b2frame", bytes((i * 7 + i // 13) % 251 for i in range(10000)), 1, 4096,
      blosc2.Codec.LZ4, [blosc2.Filter.NOFILTER])
# 2000 bytes in exactly two chunks, blosclz with bitshuffle.
write("schunk_f64_even.b2frame", (np.arange(250, dtype="<f8") / 4).tobytes(), 8, 1000,
      blosc2.Codec.BLOSCLZ, [blosc2.Filter.BITSHUFFLE])
# No chunks at all: no index chunk, chunksize -1.
with open("schunk_empty.b2frame", "wb") as f:
    f.write(blosc2.SChunk(chunksize=1024).to_cframe())
# Special chunks: 250 NaNs (float64) in chunks of 800 bytes, the last 400.
s = blosc2.SChunk(chunksize=800, cparams={"typesize": 8})
s.fill_special(250, blosc2.SpecialValue.NAN)
with open("schunk_nan.b2frame", "wb") as f:
    f.write(s.to_cframe())
# Zeros the same way, typesize 4: 1000 bytes in chunks of 256.
s = blosc2.SChunk(chunksize=256, cparams={"typesize": 4})
s.fill_special(250, blosc2.SpecialValue.ZERO)
with open("schunk_zeros.b2frame", "wb") as f:
    f.write(s.to_cframe())
