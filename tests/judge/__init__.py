"""Tests of the email judge."""
