DELETE FROM alerts WHERE verification_id IS NOT NULL;
ALTER TABLE alerts DROP CONSTRAINT alerts_kind_check;
ALTER TABLE alerts ADD CONSTRAINT alerts_kind_check CHECK (kind IN ('NEW_ENTRY', 'NEW_OWNER', 'CANCELLED', 'AMOUNT_CHANGED', 'COULD_NOT_VERIFY'));
ALTER TABLE alerts DROP CONSTRAINT alerts_verification_change_key;
ALTER TABLE alerts DROP CONSTRAINT alerts_one_source;
ALTER TABLE alerts DROP COLUMN verification_id;
ALTER TABLE alerts ALTER COLUMN comparison_id SET NOT NULL;
DROP TABLE copy_verifications;
