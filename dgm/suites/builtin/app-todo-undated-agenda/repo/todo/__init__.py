"""A small personal to-do manager with JSON storage."""

from .models import Task
from .render import render_agenda
from .service import AgendaItem, TodoList
from .storage import JsonStore

__all__ = ["AgendaItem", "JsonStore", "Task", "TodoList", "render_agenda"]
