"""Keras crash / fix pairs: the input shape a model was built for, sparse labels out of range,
loss / label shapes, compile arguments."""

SETUP = """
import numpy as np
import keras
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 8)).astype('float32')
y = rng.integers(0, 3, 64)
model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation='relu'),
                          keras.layers.Dense(3, activation='softmax')])
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
"""

PAIRS = [
    ("fit on fewer features than the input layer",
     "model.fit(X[:, :6], y, epochs=1, verbose=0)", "model.fit(X, y, epochs=1, verbose=0)"),
    ("sparse labels shifted out of range",
     "model.fit(X, y + 1, epochs=1, verbose=0)", "model.fit(X, y, epochs=1, verbose=0)"),
    ("predict on data reshaped to 3-D",
     "preds = model.predict(X.reshape(64, 2, 4), verbose=0)",
     "preds = model.predict(X, verbose=0)"),
    ("an optimizer name Keras does not know",
     "model.compile(optimizer='adamw2', loss='sparse_categorical_crossentropy')",
     "model.compile(optimizer='adamw', loss='sparse_categorical_crossentropy')"),
    ("a misspelt keyword to fit",
     "model.fit(X, y, epochs=1, verbose=0, batch=16)",
     "model.fit(X, y, epochs=1, verbose=0, batch_size=16)"),
    ("labels of another length than the data",
     "model.fit(X, y[:60], epochs=1, verbose=0)", "model.fit(X, y, epochs=1, verbose=0)"),
    ("evaluate on data with an extra feature",
     "extra = np.hstack([X, np.ones((64, 1), 'float32')])\n"
     "model.evaluate(extra, y, verbose=0)",
     "extra = np.hstack([X[:, :7], np.ones((64, 1), 'float32')])\n"
     "model.evaluate(extra, y, verbose=0)"),
    ("labels for ten classes with a three-unit softmax",
     "y10 = rng.integers(0, 10, 64)\ny10[0] = 9\nmodel.fit(X, y10, epochs=1, verbose=0)",
     "y10 = rng.integers(0, 10, 64) % 3\nmodel.fit(X, y10, epochs=1, verbose=0)"),
    ("one-hot labels with a sparse loss",
     "model.fit(X, keras.utils.to_categorical(y, 3), epochs=1, verbose=0)",
     "model.fit(X, y, epochs=1, verbose=0)"),
    ("argmax of predictions compared with the labels",
     "preds = model.predict(X, verbose=0)\nacc = (preds.argmax(1) == y[:32]).mean()",
     "preds = model.predict(X, verbose=0)\nacc = (preds.argmax(1) == y).mean()"),
    ("a text column stacked into the features",
     "data = np.column_stack([X, np.full(64, 'a')])[:, 1:]\n"
     "model.fit(data, y, epochs=1, verbose=0)",
     "data = np.column_stack([X, np.full(64, 1.0)])[:, 1:].astype('float32')\n"
     "model.fit(data, y, epochs=1, verbose=0)"),
    ("a model built in the cell for ten features, fitted on eight",
     "m = keras.Sequential([keras.Input((10,)), keras.layers.Dense(8, activation='relu'),\n"
     "                      keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
     "m.fit(X, y, epochs=1, verbose=0)",
     "m = keras.Sequential([keras.Input((X.shape[1],)), keras.layers.Dense(8, activation='relu'),\n"
     "                      keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
     "m.fit(X, y, epochs=1, verbose=0)"),
    ("a two-unit softmax built in the cell for three classes",
     "m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(2, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
     "m.fit(X, y, epochs=1, verbose=0)",
     "m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
     "m.fit(X, y, epochs=1, verbose=0)"),
    ("integer labels with a categorical loss, model built in the cell",
     "m = keras.Sequential([keras.layers.Dense(16, activation='relu', input_shape=(8,)),\n"
     "                      keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='categorical_crossentropy')\n"
     "m.fit(X, y, epochs=1, verbose=0)",
     "m = keras.Sequential([keras.layers.Dense(16, activation='relu', input_shape=(8,)),\n"
     "                      keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='categorical_crossentropy')\n"
     "m.fit(X, keras.utils.to_categorical(y, 3), epochs=1, verbose=0)"),
    ("predict_classes after a fit in the same cell",
     "history = model.fit(X, y, epochs=1, verbose=0)\n"
     "classes = model.predict_classes(X)",
     "history = model.fit(X, y, epochs=1, verbose=0)\n"
     "classes = np.argmax(model.predict(X, verbose=0), axis=1)"),
    ("predict_classes of a model built and fitted in the cell",
     "m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
     "m.fit(X, y, epochs=1, verbose=0)\nclasses = m.predict_classes(X)",
     "m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
     "m.fit(X, y, epochs=1, verbose=0)\nclasses = m.predict(X, verbose=0).argmax(axis=1)"),
    ("an optimizer given the learning rate as lr",
     "model.compile(optimizer=keras.optimizers.Adam(lr=0.01), "
     "loss='sparse_categorical_crossentropy')",
     "model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01), "
     "loss='sparse_categorical_crossentropy')"),
    ("labels one-hot encoded twice for a categorical loss",
     "onehot = keras.utils.to_categorical(y, 3)\nonehot = keras.utils.to_categorical(onehot, 3)\n"
     "m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='categorical_crossentropy')\n"
     "m.fit(X, onehot, epochs=1, verbose=0)",
     "onehot = keras.utils.to_categorical(y, 3)\n"
     "m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='categorical_crossentropy')\n"
     "m.fit(X, onehot, epochs=1, verbose=0)"),
    ("the validation accuracy under the log key Keras used before 2.3",
     "model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])\n"
     "history = model.fit(X, y, epochs=2, validation_split=0.2, verbose=0)\n"
     "best = max(history.history['val_acc'])",
     "model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])\n"
     "history = model.fit(X, y, epochs=2, validation_split=0.2, verbose=0)\n"
     "best = max(history.history['val_accuracy'])"),
    ("the training accuracy of a model built in the cell under the old log key",
     "m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])\n"
     "h = m.fit(X, y, epochs=2, verbose=0)\nlast = h.history['acc'][-1]",
     "m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(3, activation='softmax')])\n"
     "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])\n"
     "h = m.fit(X, y, epochs=2, verbose=0)\nlast = h.history['accuracy'][-1]"),
]
