"""Invoicing for the shop's business customers."""

from .models import Invoice, LineItem
from .render import render_invoice
from .totals import Totals, compute_totals

__all__ = ["Invoice", "LineItem", "Totals", "compute_totals", "render_invoice"]
