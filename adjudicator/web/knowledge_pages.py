"""Blueprint: knowledge_pages (filled in by its issue)."""

from flask import Blueprint

bp = Blueprint("knowledge_pages", __name__)
