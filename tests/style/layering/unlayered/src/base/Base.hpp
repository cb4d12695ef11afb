// Layering fixture: the bottom layer.
#pragma once
