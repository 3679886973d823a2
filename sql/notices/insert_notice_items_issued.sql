-- The items a mailed notice's letter lists (registered as _issued), kept with its record.
INSERT INTO main.notice_items_issued BY NAME SELECT * FROM _issued
