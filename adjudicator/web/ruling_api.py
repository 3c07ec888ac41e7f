"""Blueprint: ruling_api (filled in by its issue)."""

from flask import Blueprint

bp = Blueprint("ruling_api", __name__)
