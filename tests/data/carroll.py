"""Carroll 2004 (../shared/seeds/000_*.txt; 000.md §4), transcribed as printed.

TABLE_6: per-replication goodput (b/s), one client, TCP New Reno, 320 ms,
BER 1e-7, CETEN-R on and off: "Table 6. t-Test Calculation", thesis p. 38.

TABLES_4_5: one-client mean goodput (b/s) and standard deviation over 5
replications per cell: Table 4 (Reno) and Table 5 (New Reno), pp. 36-38.
(flavour, delay ms, BER, CETEN-R) -> (mean, sd).

TABLE_7: the one-client ANOVA (p. 41): component -> (sum of squares,
% variation, DOF). TABLE_8: effects (p. 42): term -> (estimate, std error).
"""

TABLE_6 = {
    "on": [137847.00, 135952.40, 136665.10, 139072.80, 133091.10],
    "off": [132562.30, 132253.60, 134581.60, 136032.10, 135810.40],
}
TABLE_6_PRINTED = {"sum": 11388.40, "mean": 2277.68, "variance": 9162866.46, "sd": 3027.02,
                   "t": 2.132, "se": 1353.72, "ci": (-607.45, 5164.81)}

TABLES_4_5 = {
    ("Reno", 50, 1e-7, "Off"): (808558, 6171), ("Reno", 50, 1e-7, "On"): (767317, 5035),
    ("Reno", 50, 1e-6, "Off"): (384695, 8264), ("Reno", 50, 1e-6, "On"): (398321, 2681),
    ("Reno", 50, 1e-5, "Off"): (45059, 1156), ("Reno", 50, 1e-5, "On"): (79848, 877),
    ("Reno", 320, 1e-7, "Off"): (138178, 1985), ("Reno", 320, 1e-7, "On"): (132471, 2585),
    ("Reno", 320, 1e-6, "Off"): (72374, 2642), ("Reno", 320, 1e-6, "On"): (71118, 845),
    ("Reno", 320, 1e-5, "Off"): (15896, 330), ("Reno", 320, 1e-5, "On"): (21274, 428),
    ("New Reno", 50, 1e-7, "Off"): (777994, 2245), ("New Reno", 50, 1e-7, "On"): (795913, 6753),
    ("New Reno", 50, 1e-6, "Off"): (387657, 4528), ("New Reno", 50, 1e-6, "On"): (486847, 3617),
    ("New Reno", 50, 1e-5, "Off"): (45304, 1048), ("New Reno", 50, 1e-5, "On"): (111455, 2908),
    ("New Reno", 320, 1e-7, "Off"): (134248, 1772), ("New Reno", 320, 1e-7, "On"): (136526, 2257),
    ("New Reno", 320, 1e-6, "Off"): (72093, 1925), ("New Reno", 320, 1e-6, "On"): (85709, 1698),
    ("New Reno", 320, 1e-5, "Off"): (16036, 743), ("New Reno", 320, 1e-5, "On"): (28465, 728),
}

TABLE_7 = {
    "y": (16481261625731, None, 120), "ybar": (7533339392812, None, 1),
    "y - ybar": (8947922232919, 100.000, 119),
    "Main effects": (7090312191271, 79.240, 5),
    "flavour": (4270497987, 0.048, 1), "delay": (3613339349705, 40.382, 1),
    "ber": (3462873228420, 38.700, 2), "ceten": (9829115159, 0.110, 1),
    "First-order interactions": (1842871971197, 20.596, 9),
    "flavour x delay": (2065421299, 0.023, 1), "flavour x ber": (3688542224, 0.041, 2),
    "flavour x ceten": (8837107186, 0.099, 1), "delay x ber": (1813470880115, 20.267, 2),
    "delay x ceten": (5580255068, 0.062, 1), "ber x ceten": (9229765305, 0.103, 2),
    "Second-order interactions": (12984015724, 0.145, 7),
    "flavour x delay x ber": (2034630841, 0.023, 2), "flavour x delay x ceten": (4453810033, 0.050, 1),
    "flavour x ber x ceten": (1205669494, 0.013, 2), "delay x ber x ceten": (5289905355, 0.059, 2),
    "Third-order interactions": (676729980, 0.008, 2),
    "flavour x delay x ber x ceten": (676729980, 0.008, 2),
    "Errors": (1077324747, 0.012, 96),
}

TABLE_8 = {
    "flavour[New Reno]": (5966, 305.81), "flavour[Reno]": (-5966, 305.81),
    "delay[320]": (-173526, 305.81), "delay[50]": (173526, 305.81),
    "ceten[Off]": (-9050, 305.81), "ceten[On]": (9050, 305.81),
    "ber[1e-05]": (-205142, 432.48), "ber[1e-06]": (-5703, 432.48), "ber[1e-07]": (210846, 432.48),
    "delay[320] x ber[1e-05]": (148522, 432.48), "delay[320] x ber[1e-06]": (3998, 432.48),
    "delay[320] x ber[1e-07]": (-152519, 432.48), "delay[50] x ber[1e-05]": (-148522, 432.48),
    "delay[50] x ber[1e-06]": (-3998, 432.48), "delay[50] x ber[1e-07]": (152519, 432.48),
}
