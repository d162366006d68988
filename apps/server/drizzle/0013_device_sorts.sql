CREATE INDEX "devices_entity_name_idx" ON "devices" USING btree ("entity","name");--> statement-breakpoint
CREATE INDEX "devices_entity_group_sort_idx" ON "devices" USING btree ("entity","group","name");--> statement-breakpoint
CREATE INDEX "devices_entity_state_sort_idx" ON "devices" USING btree ("entity","state_current","name");--> statement-breakpoint
CREATE INDEX "devices_entity_fw_sort_idx" ON "devices" USING btree ("entity","fw_version","name");--> statement-breakpoint
CREATE INDEX "devices_entity_battery_sort_idx" ON "devices" USING btree ("entity","battery","name");--> statement-breakpoint
CREATE INDEX "devices_updated_idx" ON "devices" USING btree ("updated_at","name");