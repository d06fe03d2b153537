"""featscale: feature scaling for tabular data, without numpy."""

from .scalers import MinMaxScaler, StandardScaler, minmax, zscore
from .table import columns, rows

__all__ = ["zscore", "minmax", "StandardScaler", "MinMaxScaler", "columns", "rows"]
