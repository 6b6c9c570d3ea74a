"""Streaming polyphase windowed-sinc (Kaiser) resampler in plain numpy, for any integer rate pair."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]

_BLOCK = 8192  # outputs computed per vectorised step (bounds temporary memory)


class Resampler:
    """Converts a mono float stream from ``src_rate`` to ``dst_rate``; feed with ``process``, end with ``flush``.

    Same filter as scipy's ``resample_poly`` default: low-pass at the lower Nyquist, ``zeros`` sinc
    zero-crossings each side, Kaiser window ``beta``. Output is delayed-compensated: output sample ``n``
    corresponds to input time ``n / dst_rate``.
    """

    def __init__(self, src_rate: int, dst_rate: int, *, zeros: int = 10, beta: float = 5.0) -> None:
        if src_rate <= 0 or dst_rate <= 0:
            raise ValueError(f"sample rates must be positive, got {src_rate} -> {dst_rate}")
        g = math.gcd(int(src_rate), int(dst_rate))
        self.src_rate, self.dst_rate = int(src_rate), int(dst_rate)
        self.up, self.down = self.dst_rate // g, self.src_rate // g
        width = max(self.up, self.down)
        half = zeros * width
        taps = np.arange(-half, half + 1, dtype=np.float64)
        h = np.sinc(taps / width) * np.kaiser(2 * half + 1, beta) * (self.up / width)
        self._delay = half
        self._k = -(-len(h) // self.up)  # taps per output
        padded = np.zeros(self._k * self.up, dtype=np.float64)
        padded[: len(h)] = h
        self._table = padded.reshape(self._k, self.up).T.astype(np.float32)  # [phase, k] = h[phase + k*up]
        self.reset()

    def reset(self) -> None:
        """Forget all input; the next sample fed is time zero."""
        self._buf = np.zeros(self._k, dtype=np.float32)  # K zeros stand for the time before the stream
        self._buf_start = -self._k  # absolute input index of _buf[0]
        self._n_in = 0
        self._n_out = 0

    @property
    def passthrough(self) -> bool:
        return self.up == self.down

    def process(self, x: npt.ArrayLike) -> FloatArray:
        """Feed input samples; return every output sample that can be computed so far."""
        data = np.asarray(x, dtype=np.float32).reshape(-1)
        if self.passthrough:
            self._n_in += len(data)
            self._n_out += len(data)
            return data.copy()
        self._buf = np.concatenate([self._buf, data])
        self._n_in += len(data)
        # output n is ready once its newest input index (n*down + delay)//up has arrived
        ready = (self._n_in * self.up - self._delay - 1) // self.down + 1 if self._n_in else 0
        return self._emit(max(ready, self._n_out))

    def flush(self) -> FloatArray:
        """End the stream: return the tail so the total output is ceil(n_in * dst / src) samples, then reset."""
        if self.passthrough:
            return np.zeros(0, dtype=np.float32)
        total = -(-self._n_in * self.up // self.down)
        pad = self._delay // self.up + self._k + 1
        self._buf = np.concatenate([self._buf, np.zeros(pad, dtype=np.float32)])
        out = self._emit(total)
        self.reset()
        return out

    def _emit(self, stop: int) -> FloatArray:
        parts: list[FloatArray] = []
        arange_k = np.arange(self._k)
        for n0 in range(self._n_out, stop, _BLOCK):
            n = np.arange(n0, min(n0 + _BLOCK, stop), dtype=np.int64)
            m = n * self.down + self._delay
            newest = m // self.up
            idx = newest[:, None] - arange_k[None, :] - self._buf_start
            parts.append(np.einsum("ij,ij->i", self._table[m % self.up], self._buf[idx]).astype(np.float32))
        self._n_out = max(self._n_out, stop)
        # drop input no longer needed by future outputs
        oldest_needed = (self._n_out * self.down + self._delay) // self.up - self._k + 1
        drop = oldest_needed - self._buf_start
        if drop > 0:
            self._buf = self._buf[drop:]
            self._buf_start += drop
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)


def resample(x: npt.ArrayLike, src_rate: int, dst_rate: int) -> FloatArray:
    """Resample a whole mono signal (float) in one go."""
    r = Resampler(src_rate, dst_rate)
    head = r.process(x)
    return np.concatenate([head, r.flush()])
