"""Legal building blocks: small, pure pieces of arithmetic that laws repeat, so a regime's rules read like the law.

A block knows no article and no regime: it computes (an age limit, a quota, a recidivism, a fine range, a chain
of deadlines…) and explains the result in Portuguese; the regime's rule decides which dispositivo it applies and
cites it in the finding it builds. Every mode a law leaves open (strict or inclusive bound, how a vehicle's age
counts, which prior decisions make a recidivism) is an explicit argument, never a default, so the rule passes
the option its named interpretation chose.

- limits: age and licence-time limits with strict/inclusive bounds, numeric maxima and minima;
- documents: document age windows (issued at most N days before a reference date);
- vehicle_age: a vehicle's age and last year of service by counting mode;
- quotas: per person, per company, per population (1 per N inhabitants plus extras), per students;
- recidivism: specific or generic, with or without a window, counted from the first or the last prior;
- penalties: ladders, sanctions chosen out of sequence (separately or cumulatively), fine ranges, doubling;
- points: points in a rolling window;
- suspensions: cumulative suspension days and consecutive scheduling;
- chains: chains of deadlines with an overall ceiling.
"""
