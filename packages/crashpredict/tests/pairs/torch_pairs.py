"""PyTorch crash / fix pairs: layer input sizes (through Sequential, conv/pool arithmetic and
a user module's straight-chain forward), dtypes, loss targets, tensor shape functions."""

SETUP = """
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
images = torch.randn(16, 1, 28, 28)
labels = torch.randint(0, 10, (16,))
feats = torch.randn(16, 20)
cnn = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(16, 32, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                    nn.Linear(32 * 5 * 5, 10))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(6 * 12 * 12, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = torch.flatten(x, 1)
        return self.fc1(x)

net = Net()
loader = DataLoader(TensorDataset(feats, labels), batch_size=4, shuffle=True)
"""

PAIRS = [
    ("Linear after conv and pool sized for padding that is not there",
     "model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),\n"
     "                      nn.Linear(8 * 14 * 14, 10))\nout = model(images)",
     "model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),\n"
     "                      nn.Linear(8 * 13 * 13, 10))\nout = model(images)"),
    ("a CNN built for 28x28 given 32x32 images",
     "out = cnn(torch.randn(4, 1, 32, 32))", "out = cnn(torch.randn(4, 1, 28, 28))"),
    ("a user module's forward chain given larger images",
     "out = net(torch.randn(2, 1, 32, 32))", "out = net(torch.randn(2, 1, 28, 28))"),
    ("integer features to a Linear layer",
     "x = torch.tensor([[1, 2, 3, 4]] * 8)\nlin = nn.Linear(4, 2)\nout = lin(x)",
     "x = torch.tensor([[1, 2, 3, 4]] * 8, dtype=torch.float32)\nlin = nn.Linear(4, 2)\n"
     "out = lin(x)"),
    ("float64 numpy data to a float32 layer",
     "X_np = np.random.rand(8, 20)\nout = nn.Linear(20, 5)(torch.from_numpy(X_np))",
     "X_np = np.random.rand(8, 20)\nout = nn.Linear(20, 5)(torch.from_numpy(X_np).float())"),
    ("CrossEntropyLoss with float class indices",
     "criterion = nn.CrossEntropyLoss()\nlogits = nn.Linear(20, 10)(feats)\n"
     "loss = criterion(logits, labels.float())",
     "criterion = nn.CrossEntropyLoss()\nlogits = nn.Linear(20, 10)(feats)\n"
     "loss = criterion(logits, labels)"),
    ("CrossEntropyLoss with half the targets",
     "loss = nn.CrossEntropyLoss()(nn.Linear(20, 10)(feats), labels[:8])",
     "loss = nn.CrossEntropyLoss()(nn.Linear(20, 10)(feats), labels)"),
    ("MSELoss between outputs and targets that cannot broadcast",
     "pred = nn.Linear(20, 3)(feats)\nloss = nn.MSELoss()(pred, torch.randn(16))",
     "pred = nn.Linear(20, 3)(feats)\nloss = nn.MSELoss()(pred, torch.randn(16, 3))"),
    ("BCELoss with targets missing the trailing axis",
     "probs = torch.sigmoid(nn.Linear(20, 1)(feats))\n"
     "loss = nn.BCELoss()(probs, (labels > 4).float())",
     "probs = torch.sigmoid(nn.Linear(20, 1)(feats))\n"
     "loss = nn.BCELoss()(probs, (labels > 4).float().unsqueeze(1))"),
    ("view into a wrong number of pixels",
     "x = images.view(16, 28 * 27)", "x = images.view(16, -1)"),
    ("a conv layer expecting RGB given grayscale images",
     "conv = nn.Conv2d(3, 8, 3)\nout = conv(images)",
     "conv = nn.Conv2d(1, 8, 3)\nout = conv(images)"),
    ("a kernel larger than the feature map left after pooling",
     "seq = nn.Sequential(nn.Conv2d(1, 4, 3), nn.MaxPool2d(2), nn.Conv2d(4, 4, 3),\n"
     "                    nn.MaxPool2d(2), nn.Conv2d(4, 4, 7))\nout = seq(images)",
     "seq = nn.Sequential(nn.Conv2d(1, 4, 3), nn.MaxPool2d(2), nn.Conv2d(4, 4, 3),\n"
     "                    nn.MaxPool2d(2), nn.Conv2d(4, 4, 5))\nout = seq(images)"),
    ("LSTM given sequences with the wrong feature size",
     "lstm = nn.LSTM(input_size=10, hidden_size=16, batch_first=True)\n"
     "out, _ = lstm(torch.randn(4, 7, 12))",
     "lstm = nn.LSTM(input_size=10, hidden_size=16, batch_first=True)\n"
     "out, _ = lstm(torch.randn(4, 7, 10))"),
    ("matmul with a random weight of the wrong height",
     "W = torch.randn(10, 5)\nh = feats @ W", "W = torch.randn(20, 5)\nh = feats @ W"),
    ("cat of tensors with different ranks",
     "both = torch.cat([feats, torch.randn(16, 5, 2)], dim=1)",
     "both = torch.cat([feats, torch.randn(16, 5)], dim=1)"),
    ("Embedding given float indices",
     "emb = nn.Embedding(100, 8)\nvecs = emb(torch.rand(4, 6))",
     "emb = nn.Embedding(100, 8)\nvecs = emb(torch.randint(0, 100, (4, 6)))"),
    ("a user module's output to CrossEntropyLoss with float targets",
     "out = net(images)\nloss = nn.CrossEntropyLoss()(out, labels.float())",
     "out = net(images)\nloss = nn.CrossEntropyLoss()(out, labels)"),
    ("a head too narrow for the flattened CNN features",
     "body = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),\n"
     "                     nn.Flatten())\nhead = nn.Linear(8 * 8, 10)\nout = head(body(images))",
     "body = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),\n"
     "                     nn.Flatten())\nhead = nn.Linear(8 * 16, 10)\nout = head(body(images))"),
    ("images missing the channel axis given to a conv net",
     "out = cnn(images.squeeze(1).unsqueeze(0))", "out = cnn(images)"),
    ("BatchNorm1d with the wrong number of features",
     "bn = nn.BatchNorm1d(10)\nnormed = bn(feats)",
     "bn = nn.BatchNorm1d(20)\nnormed = bn(feats)"),
    ("a head sized for the unpooled feature map",
     "x = torch.randn(8, 3, 32, 32)\nconv = nn.Conv2d(3, 16, 3, padding=1)\n"
     "y = F.max_pool2d(F.relu(conv(x)), 2)\nfc = nn.Linear(16 * 32 * 32, 10)\n"
     "out = fc(y.view(8, -1))",
     "x = torch.randn(8, 3, 32, 32)\nconv = nn.Conv2d(3, 16, 3, padding=1)\n"
     "y = F.max_pool2d(F.relu(conv(x)), 2)\nfc = nn.Linear(16 * 16 * 16, 10)\n"
     "out = fc(y.view(8, -1))"),
    ("an LSTM given one feature per step",
     "lstm = nn.LSTM(20, 32, batch_first=True)\nout, (h, c) = lstm(feats.unsqueeze(-1))\n"
     "last = nn.Linear(32, 2)(out[:, -1, :])",
     "lstm = nn.LSTM(20, 32, batch_first=True)\nout, (h, c) = lstm(feats.unsqueeze(1))\n"
     "last = nn.Linear(32, 2)(out[:, -1, :])"),
    ("F.cross_entropy with float targets after an MLP",
     "mlp = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 10))\n"
     "loss = F.cross_entropy(mlp(feats), labels.float())\nloss.backward()",
     "mlp = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 10))\n"
     "loss = F.cross_entropy(mlp(feats), labels)\nloss.backward()"),
    ("nll_loss with fewer targets than rows",
     "logp = torch.log_softmax(nn.Linear(20, 10)(feats), dim=1)\nloss = F.nll_loss(logp, labels[:10])",
     "logp = torch.log_softmax(nn.Linear(20, 10)(feats), dim=1)\nloss = F.nll_loss(logp, labels)"),
    ("float64 tensors to a Linear layer",
     "x = torch.randn(16, 20, dtype=torch.float64)\nout = nn.Linear(20, 5)(x)",
     "x = torch.randn(16, 20, dtype=torch.float64)\nout = nn.Linear(20, 5)(x.float())"),
    ("accuracy from a CNN's argmax, compared with a reshaped label tensor",
     "pred = cnn(images).argmax(dim=1)\nacc = (pred == labels.view(4, 4)).float().mean()\n"
     "nn.Linear(16, 1)(acc)",
     "pred = cnn(images).argmax(dim=1)\nacc = (pred == labels).float().mean()\n"
     "nn.Linear(1, 1)(acc.view(1, 1))"),
    ("view of a transposed (non-contiguous) tensor",
     "x = (feats @ torch.randn(20, 8)).t()\nflat = x.view(-1)",
     "x = (feats @ torch.randn(20, 8)).t()\nflat = x.reshape(-1)"),
    ("a batch of random images with the channels last",
     "batch = torch.rand(8, 28, 28, 1)\nout = cnn(batch)",
     "batch = torch.rand(8, 28, 28, 1)\nout = cnn(batch.permute(0, 3, 1, 2))"),
    ("a user module given a flat feature vector",
     "out = net(feats)", "out = net(images)"),
    ("a training loop feeding batches to a model sized for fewer features",
     "mlp = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 10))\n"
     "opt = torch.optim.SGD(mlp.parameters(), lr=0.1)\nfor xb, yb in loader:\n"
     "    opt.zero_grad()\n    loss = F.cross_entropy(mlp(xb), yb)\n    loss.backward()\n"
     "    opt.step()",
     "mlp = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 10))\n"
     "opt = torch.optim.SGD(mlp.parameters(), lr=0.1)\nfor xb, yb in loader:\n"
     "    opt.zero_grad()\n    loss = F.cross_entropy(mlp(xb), yb)\n    loss.backward()\n"
     "    opt.step()"),
    ("float class targets inside an enumerate loop",
     "head = nn.Linear(20, 10)\nfor step, (xb, yb) in enumerate(loader):\n"
     "    loss = F.cross_entropy(head(xb), yb.float())",
     "head = nn.Linear(20, 10)\nfor step, (xb, yb) in enumerate(loader):\n"
     "    loss = F.cross_entropy(head(xb), yb)"),
    ("a regression loss between three outputs and one target per row",
     "dl = DataLoader(TensorDataset(feats, feats[:, 0]), batch_size=8)\nreg = nn.Linear(20, 3)\n"
     "for xb, yb in dl:\n    loss = nn.MSELoss()(reg(xb), yb)",
     "dl = DataLoader(TensorDataset(feats, feats[:, 0]), batch_size=8)\nreg = nn.Linear(20, 3)\n"
     "for xb, yb in dl:\n    loss = nn.MSELoss()(reg(xb)[:, 0], yb)"),
    ("a loader that drops its only, incomplete batch never runs the loop body",
     "dl = DataLoader(TensorDataset(feats, labels), batch_size=32)\n"
     "for xb, yb in dl:\n    out = nn.Linear(5, 2)(xb)",
     "dl = DataLoader(TensorDataset(feats, labels), batch_size=32, drop_last=True)\n"
     "for xb, yb in dl:\n    out = nn.Linear(5, 2)(xb)"),
    ("a numpy method on a layer's output tensor",
     "out = nn.Linear(20, 2)(feats)\nhalf = out.astype('float16')",
     "out = nn.Linear(20, 2)(feats)\nhalf = out.half()"),
    ("numpy() of a model's predictions with autograd on",
     "preds = cnn(images).argmax(1)\nprobs = F.softmax(cnn(images), dim=1).numpy()",
     "preds = cnn(images).argmax(1)\nwith torch.no_grad():\n"
     "    probs = F.softmax(cnn(images), dim=1).numpy()"),
    ("numpy() of the outputs after a backward step",
     "out = net(images)\nloss = F.cross_entropy(out, labels)\nloss.backward()\n"
     "scores = out.numpy()",
     "out = net(images)\nloss = F.cross_entropy(out, labels)\nloss.backward()\n"
     "scores = out.detach().numpy()"),
    ("view of a normalised channels-last batch",
     "x = images.repeat(1, 3, 1, 1).permute(0, 2, 3, 1)\nx = (x - x.mean()) / x.std()\n"
     "flat = x.view(16, -1)",
     "x = images.repeat(1, 3, 1, 1).permute(0, 2, 3, 1)\nx = (x - x.mean()) / x.std()\n"
     "flat = x.reshape(16, -1)"),
]
