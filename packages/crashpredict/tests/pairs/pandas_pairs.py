"""pandas crash / fix pairs: merge/join keys, astype of non-numeric values, set_index/loc on
missing labels, positional indexing past the end, column keys after transformations."""

SETUP = """
import numpy as np
import pandas as pd
sales = pd.DataFrame({'store': ['A', 'B', 'C', 'A', 'B'], 'units': [3, 5, 2, 8, 1],
                      'price': ['1.5', '2.0', 'n/a', '3.1', '2.2'],
                      'day': ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04',
                              '2024-01-05']})
stores = pd.DataFrame({'store_id': ['A', 'B', 'C'], 'city': ['X', 'Y', 'Z']})
"""

PAIRS = [
    ("merge on a key the right frame lacks",
     "m = sales.merge(stores, on='store')",
     "m = sales.merge(stores, left_on='store', right_on='store_id')"),
    ("astype float of a column holding 'n/a'",
     "sales['price'] = sales['price'].astype(float)",
     "sales['price'] = pd.to_numeric(sales['price'], errors='coerce')"),
    ("loc of a label missing after set_index",
     "s = sales.set_index('store')\nrow = s.loc['D']",
     "s = sales.set_index('store')\nrow = s.loc['A']"),
    ("iloc one past the end", "row = sales.iloc[5]", "row = sales.iloc[4]"),
    ("join with overlapping columns and no suffix",
     "j = sales.join(sales[['units']])", "j = sales.join(sales[['units']], rsuffix='_r')"),
    ("a ratio with NaN cast to int",
     "sales['growth'] = sales['units'] / sales['units'].shift(1)\n"
     "g = sales['growth'].astype(int)",
     "sales['growth'] = sales['units'] / sales['units'].shift(1)\n"
     "g = sales['growth'].fillna(0).astype(int)"),
    ("agg of a misspelt column",
     "totals = sales.groupby('store').agg({'unit': 'sum'})",
     "totals = sales.groupby('store').agg({'units': 'sum'})"),
    ("pivot with duplicate index/column pairs",
     "p = sales.assign(day='d').pivot(index='store', columns='day', values='units')",
     "p = sales.assign(day='d').pivot_table(index='store', columns='day', values='units',"
     " aggfunc='sum')"),
    ("to_datetime with a format that does not match",
     "d = pd.to_datetime(sales['day'], format='%d/%m/%Y')",
     "d = pd.to_datetime(sales['day'], format='%Y-%m-%d')"),
    ("the old column name after rename",
     "sales = sales.rename(columns={'units': 'qty'})\ntotal = sales['units'].sum()",
     "sales = sales.rename(columns={'units': 'qty'})\ntotal = sales['qty'].sum()"),
    ("the .str accessor on a numeric column",
     "u = sales['units'].str.upper()", "u = sales['store'].str.lower()"),
    ("iloc past the rows nlargest kept",
     "top = sales.nlargest(3, 'units')\nthird = top.iloc[3]",
     "top = sales.nlargest(3, 'units')\nthird = top.iloc[2]"),
    ("loc of a column not selected",
     "sub = sales[['store', 'units']]\nprices = sub.loc[:, 'price']",
     "sub = sales[['store', 'units']]\nprices = sub.loc[:, 'units']"),
    ("adding a text column to a numeric one",
     "total = sales['price'] + sales['units']",
     "total = pd.to_numeric(sales['price'], errors='coerce') + sales['units']"),
    ("merge keys of int and object dtype",
     "codes = pd.DataFrame({'units': ['3', '5'], 'flag': [1, 0]})\n"
     "m = pd.merge(sales, codes, on='units')",
     "codes = pd.DataFrame({'units': [3, 5], 'flag': [1, 0]})\n"
     "m = pd.merge(sales, codes, on='units')"),
    ("drop of a row label that does not exist",
     "rest = sales.drop(index=10)", "rest = sales.drop(index=4)"),
    ("set_index on a column that is not there",
     "s = sales.set_index('store_id')", "s = sales.set_index('store')"),
    ("a grouped sum read back under the old name",
     "by_store = sales.groupby('store', as_index=False)['units'].sum()\n"
     "by_store = by_store.rename(columns={'units': 'total'})\nbest = by_store['units'].max()",
     "by_store = sales.groupby('store', as_index=False)['units'].sum()\n"
     "by_store = by_store.rename(columns={'units': 'total'})\nbest = by_store['total'].max()"),
    ("loc with a mask and a missing column",
     "big = sales.loc[sales['units'] > 2, 'revenue']",
     "big = sales.loc[sales['units'] > 2, 'units']"),
    ("string concatenation of a numeric column",
     "label = sales['store'] + ': ' + sales['units']",
     "label = sales['store'] + ': ' + sales['units'].astype(str)"),
    ("shares of the total, then a positional row past the end",
     "share = sales['units'] / sales['units'].sum()\nlast = share.iloc[5]",
     "share = sales['units'] / sales['units'].sum()\nlast = share.iloc[-1]"),
    ("iloc column past the last one",
     "col = sales.iloc[:, 4]", "col = sales.iloc[:, 3]"),
    ("loc of a list with a missing column",
     "sub = sales.loc[:, ['store', 'revenue']]", "sub = sales.loc[:, ['store', 'units']]"),
    ("a column assigned a list of another length",
     "sales['rank'] = [1, 2, 3, 4]", "sales['rank'] = [1, 2, 3, 4, 5]"),
    ("predictions for a subset assigned to the whole frame",
     "sales['double'] = (sales['units'].values * 2)[:4]",
     "sales['double'] = sales['units'].values * 2"),
]
