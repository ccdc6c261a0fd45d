-- Text recognition progress of a datasource's last synchronisation (issue 26): pages read of those that needed it
ALTER TABLE "Datasource" ADD COLUMN "ocrPagesDone" INTEGER,
ADD COLUMN "ocrPagesTotal" INTEGER;
