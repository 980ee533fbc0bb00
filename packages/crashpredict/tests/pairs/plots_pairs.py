"""matplotlib / seaborn crash / fix pairs: x and y of different lengths, subplot grids,
image shapes."""

SETUP = """
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import seaborn as sns
hist = {'loss': [0.9, 0.7, 0.5, 0.4], 'val_loss': [1.0, 0.8, 0.6]}
epochs = range(1, 5)
"""

PAIRS = [
    ("validation curve one epoch short",
     "plt.plot(epochs, hist['val_loss'])", "plt.plot(range(1, 4), hist['val_loss'])"),
    ("scatter of a grid against fewer random values",
     "x = np.linspace(0, 1, 50)\nplt.scatter(x, np.random.rand(40))",
     "x = np.linspace(0, 1, 50)\nplt.scatter(x, np.random.rand(50))"),
    ("bar heights for fewer categories",
     "plt.bar(['a', 'b', 'c'], [1, 2])", "plt.bar(['a', 'b', 'c'], [1, 2, 3])"),
    ("seaborn lineplot of vectors of different lengths",
     "sns.lineplot(x=list(epochs), y=hist['val_loss'])",
     "sns.lineplot(x=list(epochs), y=hist['loss'])"),
    ("cumulative sum sliced one short",
     "x = np.arange(10)\ny = np.cumsum(x)[1:]\nplt.plot(x, y)",
     "x = np.arange(10)\ny = np.cumsum(x)\nplt.plot(x, y)"),
    ("flat index into a 2x2 grid of axes",
     "fig, axes = plt.subplots(2, 2)\naxes[4].plot([1, 2])",
     "fig, axes = plt.subplots(2, 2)\naxes[1, 1].plot([1, 2])"),
    ("indexing the single Axes of plt.subplots()",
     "fig, ax = plt.subplots()\nax[0].plot([1, 2])",
     "fig, ax = plt.subplots()\nax.plot([1, 2])"),
    ("imshow of a flat image vector",
     "plt.imshow(np.random.rand(784))", "plt.imshow(np.random.rand(784).reshape(28, 28))"),
    ("a third subplot in a 1x2 grid",
     "plt.subplot(1, 2, 3)", "plt.subplot(1, 2, 2)"),
    ("epochs counted from the training curve, validation plotted",
     "plt.plot(range(1, len(hist['loss']) + 1), hist['val_loss'])",
     "plt.plot(range(1, len(hist['loss']) + 1), hist['loss'])"),
    ("two indices into a one-row grid of axes",
     "fig, axes = plt.subplots(1, 3)\naxes[1, 0].plot([1, 2])",
     "fig, axes = plt.subplots(1, 3)\naxes[1].plot([1, 2])"),
    ("a flattened grid of axes indexed past its end",
     "fig, axes = plt.subplots(2, 2)\naxes.flatten()[4].plot([1])",
     "fig, axes = plt.subplots(2, 2, squeeze=False)\naxes.flatten()[3].plot([1])"),
    ("scatter colours of another length",
     "plt.scatter(np.random.rand(20), np.random.rand(20), c=np.random.rand(15))",
     "plt.scatter(np.random.rand(20), np.random.rand(20), c=np.random.rand(20))"),
    ("tick labels fewer than ticks",
     "plt.bar(range(3), [1, 2, 3])\nplt.xticks(range(3), ['a', 'b'])",
     "plt.bar(range(3), [1, 2, 3])\nplt.xticks(range(3), ['a', 'b', 'c'])"),
    ("plot called on the whole grid of axes",
     "fig, axes = plt.subplots(1, 2)\naxes.plot([1, 2, 3])",
     "fig, axes = plt.subplots(1, 2)\naxes[0].plot([1, 2, 3])"),
]
