"""Rules of Lei 5.722/2015 (Votuporanga-SP) as amended by Lei 6.151/2018."""
