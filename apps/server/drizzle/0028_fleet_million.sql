-- Placeholder (issue 27, the device list and fleet health at a million devices).
SELECT 1;
