-- The billing run's working tables (temp, this connection only).
DROP TABLE IF EXISTS billing_parcel_inputs;
DROP TABLE IF EXISTS billing_priced;
DROP TABLE IF EXISTS billing_compare_register;
