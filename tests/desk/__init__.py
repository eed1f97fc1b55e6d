"""The reviewer's desk."""
