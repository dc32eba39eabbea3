"""Rules of Lei 8.698/2012 (São José dos Campos-SP, táxi) and Lei 9.093/2014 (cabine de segurança)."""
