"""Fakes shipped with the package: loopback wire servers, a scripted model and a fake clock."""
