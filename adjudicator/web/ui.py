"""Blueprint: ui (filled in by its issue)."""

from flask import Blueprint

bp = Blueprint("ui", __name__)
