"""Blueprint: knowledge_api (filled in by its issue)."""

from flask import Blueprint

bp = Blueprint("knowledge_api", __name__)
