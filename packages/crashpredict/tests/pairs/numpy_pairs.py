"""numpy crash / fix pairs: broadcasting, matmul/dot, reshape, concatenate/stack, indexing.

Each pair is (name, crash cell, fixed cell); both run after SETUP in a fresh namespace.
The errors are numpy's documented ones (ValueError for shapes, IndexError for indices).
"""

SETUP = """
import numpy as np
rng = np.random.default_rng(0)
X = rng.normal(size=(100, 4))
w = rng.normal(size=4)
y = (X @ w > 0).astype(int)
batch = rng.random((32, 28, 28))
"""

PAIRS = [
    ("matmul with a random weight matrix of the wrong height",
     "W = np.random.randn(3, 5)\nh = X @ W",
     "W = np.random.randn(4, 5)\nh = X @ W"),
    ("broadcast noise of the wrong width",
     "noise = rng.normal(size=(100, 3))\nXn = X + noise",
     "noise = rng.normal(size=(100, 4))\nXn = X + noise"),
    ("reshape a flattened batch into the wrong image size",
     "flat = batch.reshape(32, -1)\nimgs = flat.reshape(32, 28, 27)",
     "flat = batch.reshape(32, -1)\nimgs = flat.reshape(32, 28, 28)"),
    ("concatenate a 1-D bias column",
     "bias = np.ones(len(X))\nXb = np.concatenate([bias, X], axis=1)",
     "bias = np.ones((len(X), 1))\nXb = np.concatenate([bias, X], axis=1)"),
    ("stack halves of different lengths",
     "parts = [X[:50], X[50:99]]\nboth = np.stack(parts)",
     "parts = [X[:50], X[50:]]\nboth = np.stack(parts)"),
    ("dot of the transposed data with a random matrix",
     "proj = np.dot(X.T, rng.normal(size=(50, 2)))",
     "proj = np.dot(X.T, rng.normal(size=(100, 2)))"),
    ("column index past the last feature",
     "last = X[:, 4]", "last = X[:, 3]"),
    ("two indices on a 1-D array",
     "first = w[:, 0]", "first = X[:, 0]"),
    ("hstack a 1-D label vector onto a matrix",
     "data = np.hstack([X, y])", "data = np.hstack([X, y.reshape(-1, 1)])"),
    ("vstack rows of another width",
     "more = np.vstack([X, np.zeros((5, 3))])", "more = np.vstack([X, np.zeros((5, 4))])"),
    ("centering with the row means",
     "mu = X.mean(axis=1)\nXc = X - mu", "mu = X.mean(axis=0)\nXc = X - mu"),
    ("matmul of two random matrices without a transpose",
     "A = np.random.rand(10, 3)\nB = np.random.rand(10, 3)\nC = A @ B",
     "A = np.random.rand(10, 3)\nB = np.random.rand(10, 3)\nC = A @ B.T"),
    ("reshape a random vector into rows of 7",
     "a = np.random.rand(50)\nm = a.reshape(7, -1)",
     "a = np.random.rand(50)\nm = a.reshape(10, -1)"),
    ("boolean mask shorter than the array",
     "mask = y[:50] == 1\npos = X[mask]", "mask = y == 1\npos = X[mask]"),
    ("weights of the wrong length",
     "weights = np.linspace(0, 1, 5)\nscore = X @ weights",
     "weights = np.linspace(0, 1, 4)\nscore = X @ weights"),
    ("standardising with a statistic of another width",
     "Z = rng.standard_normal((100, 6))\nZs = (Z - X.mean(axis=0)) / X.std(axis=0)",
     "Z = rng.standard_normal((100, 4))\nZs = (Z - X.mean(axis=0)) / X.std(axis=0)"),
    ("elementwise product of arrays from randint",
     "a = np.random.randint(0, 10, size=(5, 2))\nb = np.random.randint(0, 10, size=(2, 5))\n"
     "c = a * b",
     "a = np.random.randint(0, 10, size=(5, 2))\nb = np.random.randint(0, 10, size=(2, 5))\n"
     "c = a @ b"),
    ("indexing the row of a random sample past its end",
     "sample = np.random.rand(8, 3)\nrow = sample[8]",
     "sample = np.random.rand(8, 3)\nrow = sample[7]"),
    ("a weight matrix multiplied on the wrong side",
     "W = np.random.randn(10, 4)\nh = W @ X", "W = np.random.randn(10, 4)\nh = W @ X.T"),
    ("reshape after adding a random column",
     "e = np.random.rand(100, 1)\nflat = np.column_stack([X, e]).reshape(100, 4)",
     "e = np.random.rand(100, 1)\nflat = np.column_stack([X, e]).reshape(100, 5)"),
    ("outer products of random vectors (broadcast works), indexed past the end",
     "a = np.random.rand(5, 1)\nb = np.random.rand(1, 4)\nc = (a + b)[:, None] * b[None, :]\n"
     "d = c.reshape(5, 4)[4, 4]",
     "a = np.random.rand(5, 1)\nb = np.random.rand(1, 4)\nc = (a + b)[:, None] * b[None, :]\n"
     "d = c.reshape(5, 4)[4, 3]"),
    ("a random boolean mask of the right length",
     "e = np.random.rand(100)\nsel = X[e > 0.5]\nfirst = sel[:, 5]",
     "e = np.random.rand(100)\nsel = X[e > 0.5]\nfirst = sel[:, 3]"),
    ("a float index from true division",
     "mid = X[len(X) / 2]", "mid = X[len(X) // 2]"),
    ("standardised random features stacked with the labels",
     "F = np.random.randn(100, 3)\nFs = (F - F.mean(0)) / F.std(0)\n"
     "data = np.concatenate([Fs, y], axis=1)",
     "F = np.random.randn(100, 3)\nFs = (F - F.mean(0)) / F.std(0)\n"
     "data = np.concatenate([Fs, y[:, None]], axis=1)"),
]
