module wfserver

go 1.22
