import { Badge, Button, Menu, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Car } from '../api/carriers.js';

/** 'Type de véhicule': a dropdown that shows the count, then each vehicle's type, registration and capacity. */
export function VehiclesMenu({ cars, owner }: { cars: Car[]; owner: string }) {
  const { t } = useTranslation('carriers');
  if (!cars.length) {
    return (
      <Text size="sm" c="dark.4">
        {t('vehicles.none')}
      </Text>
    );
  }
  return (
    <Menu position="bottom-start" withinPortal shadow="md">
      <Menu.Target>
        <Button
          size="compact-sm"
          variant="light"
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={t('vehicles.open', { count: cars.length, name: owner })}
        >
          {t('vehicles.count', { count: cars.length })}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {cars.map((car) => (
          <Menu.Item key={car.id} component="div">
            <Text size="sm" fw={600}>
              {t(`carTypes.${car.carType}`)}{' '}
              <Badge variant="outline" size="sm" ml={4}>
                {car.registration}
              </Badge>
            </Text>
            <Text size="xs" c="dark.4">
              {t('vehicles.capacity', { capacity: car.capacity })}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
